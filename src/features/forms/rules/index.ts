/**
 * Form rules shared by the server and the browser: conditional visibility and answer
 * validation over a stored form. No Node imports here or below (rules.browser.test.ts bundles
 * this module for the browser and fails on any Node built-in).
 */
export { dropHidden, isAnswered, isVisible, visibleQuestionIds } from './visibility.js';
export { validateAnswers, type ValidateAnswersOptions } from './answers.js';
