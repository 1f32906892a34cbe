/**
 * Every text of the respondent pages in en, pt-BR and es: page chrome, status pages and the
 * messages of answer errors (by field-error code). Browser-safe: the page script reads the
 * error messages of its language from the same tables.
 */
import type { FieldErrorCode } from '../../../lib/field-errors.js';
import { FORM_LANGUAGES, type FormLanguage } from '../../forms/index.js';

export interface PageStrings {
  required: string;
  requiredNote: string;
  next: string;
  /** the welcome screen's button */
  start: string;
  back: string;
  /** a public link's button that keeps the answers behind a resume link */
  saveLater: string;
  /** shown on the page a resume link opens just after saving; {date}: until when it works */
  savedNotice: string;
  /** a resume link that is unknown, expired or of another form: the form starts afresh */
  resumeGone: string;
  submit: string;
  step: string;
  errorSummary: string;
  saved: string;
  saveFailed: string;
  offline: string;
  yes: string;
  no: string;
  choose: string;
  position: string;
  npsLow: string;
  npsHigh: string;
  stars: string;
  utcNote: string;
  /** filled by the page script: {zone} is the browser's time zone */
  zoneNote: string;
  moveUp: string;
  moveDown: string;
  filesKept: string;
  thanksTitle: string;
  thanksText: string;
  notFoundTitle: string;
  notFoundText: string;
  goneTitle: string;
  goneText: string;
  closedTitle: string;
  closedText: string;
  answeredTitle: string;
  answeredText: string;
  inviteRequiredTitle: string;
  inviteRequiredText: string;
  tooManyTitle: string;
  tooManyText: string;
  staleTitle: string;
  staleText: string;
  /** the name of the language switch (a list of links, each language named in itself) */
  languageSwitch: string;
  errors: Record<FieldErrorCode | 'file_too_large' | 'file_type', string>;
}

const en: PageStrings = {
  required: 'required',
  requiredNote: 'Questions marked * are required.',
  next: 'Next',
  start: 'Start',
  back: 'Back',
  saveLater: 'Save and continue later',
  savedNotice: 'Your answers are saved until {date}. To continue later, keep this page’s address (bookmark it) or copy this link:',
  resumeGone: 'This link to saved answers has expired or no longer works, so the form starts afresh.',
  submit: 'Send answers',
  step: 'Step {n} of {total}',
  errorSummary: 'Please correct the answers marked below.',
  saved: 'Draft saved.',
  saveFailed: 'The draft could not be saved; your answers are kept on this page.',
  offline: 'You are offline, so this page was not sent. Your answers are kept here: send it again once you are connected.',
  yes: 'Yes',
  no: 'No',
  choose: 'Choose…',
  position: 'Position of {option}',
  npsLow: '0: not at all likely',
  npsHigh: '10: extremely likely',
  stars: '{n} of {max} stars',
  utcNote: 'Time in UTC.',
  zoneNote: 'Time in your time zone ({zone}).',
  moveUp: 'Move {option} up',
  moveDown: 'Move {option} down',
  filesKept: 'Files already attached:',
  thanksTitle: 'Thank you',
  thanksText: 'Your answers have been received.',
  notFoundTitle: 'Page not found',
  notFoundText: 'This link does not lead to a form. Check that it was copied completely.',
  goneTitle: 'This link is no longer valid',
  goneText: 'The invitation was withdrawn or has expired. Contact the sender if you still want to answer.',
  closedTitle: 'This form is closed',
  closedText: 'It no longer accepts answers.',
  answeredTitle: 'Already answered',
  answeredText: 'Answers were already sent through this link. Thank you.',
  inviteRequiredTitle: 'Invitation needed',
  inviteRequiredText: 'This form can only be answered through a personal invitation link.',
  tooManyTitle: 'Too many attempts',
  tooManyText: 'Please wait a minute, then go back and send the page again. Your earlier steps are kept.',
  staleTitle: 'This page has expired',
  staleText: 'The page was open too long or did not come from this form. Open the link again to answer.',
  languageSwitch: 'Language',
  errors: {
    required: 'Please answer this question.',
    unknown_field: 'This answer does not belong to the form.',
    forbidden_target: 'This value is not allowed.',
    not_applicable: 'This question does not apply to your other answers.',
    invalid_type: 'This answer is not valid.',
    invalid_format: 'This answer is not in the expected format.',
    invalid_value: 'This value is not allowed.',
    too_short: 'Please order every option.',
    too_long: 'This answer is too long.',
    too_small: 'This number is too small.',
    too_large: 'This number is too large.',
    not_unique: 'Each position may be used only once.',
    unknown_reference: 'Please choose one of the options.',
    unknown_entity: 'This value is not known.',
    invalid_reference: 'This value cannot be used here.',
    limit_reached: 'Too many files were sent from here; please try again later.',
    file_too_large: 'This file is too large.',
    file_type: 'Files of this type are not accepted.',
  },
};

const ptBR: PageStrings = {
  required: 'obrigatória',
  requiredNote: 'As perguntas marcadas com * são obrigatórias.',
  next: 'Avançar',
  start: 'Começar',
  back: 'Voltar',
  saveLater: 'Salvar e continuar depois',
  savedNotice: 'Suas respostas estão salvas até {date}. Para continuar depois, guarde o endereço desta página (nos favoritos) ou copie este link:',
  resumeGone: 'Este link para respostas salvas expirou ou não funciona mais; o formulário começa do início.',
  submit: 'Enviar respostas',
  step: 'Etapa {n} de {total}',
  errorSummary: 'Corrija as respostas indicadas abaixo.',
  saved: 'Rascunho salvo.',
  saveFailed: 'Não foi possível salvar o rascunho; suas respostas continuam nesta página.',
  offline: 'Você está sem conexão, por isso esta página não foi enviada. Suas respostas continuam aqui: envie de novo quando estiver conectado.',
  yes: 'Sim',
  no: 'Não',
  choose: 'Escolha…',
  position: 'Posição de {option}',
  npsLow: '0: nada provável',
  npsHigh: '10: extremamente provável',
  stars: '{n} de {max} estrelas',
  utcNote: 'Horário em UTC.',
  zoneNote: 'Horário no seu fuso ({zone}).',
  moveUp: 'Subir {option}',
  moveDown: 'Descer {option}',
  filesKept: 'Arquivos já anexados:',
  thanksTitle: 'Obrigado',
  thanksText: 'Suas respostas foram recebidas.',
  notFoundTitle: 'Página não encontrada',
  notFoundText: 'Este link não leva a um formulário. Verifique se ele foi copiado por inteiro.',
  goneTitle: 'Este link não é mais válido',
  goneText: 'O convite foi retirado ou expirou. Fale com quem o enviou se ainda quiser responder.',
  closedTitle: 'Este formulário está encerrado',
  closedText: 'Ele não aceita mais respostas.',
  answeredTitle: 'Já respondido',
  answeredText: 'As respostas já foram enviadas por este link. Obrigado.',
  inviteRequiredTitle: 'Convite necessário',
  inviteRequiredText: 'Este formulário só pode ser respondido por um link de convite pessoal.',
  tooManyTitle: 'Tentativas demais',
  tooManyText: 'Aguarde um minuto, volte e envie a página de novo. As etapas anteriores foram guardadas.',
  staleTitle: 'Esta página expirou',
  staleText: 'A página ficou aberta tempo demais ou não veio deste formulário. Abra o link de novo para responder.',
  languageSwitch: 'Idioma',
  errors: {
    required: 'Responda esta pergunta.',
    unknown_field: 'Esta resposta não pertence ao formulário.',
    forbidden_target: 'Este valor não é permitido.',
    not_applicable: 'Esta pergunta não se aplica às suas outras respostas.',
    invalid_type: 'Esta resposta não é válida.',
    invalid_format: 'Esta resposta não está no formato esperado.',
    invalid_value: 'Este valor não é permitido.',
    too_short: 'Ordene todas as opções.',
    too_long: 'Esta resposta é longa demais.',
    too_small: 'Este número é pequeno demais.',
    too_large: 'Este número é grande demais.',
    not_unique: 'Cada posição só pode ser usada uma vez.',
    unknown_reference: 'Escolha uma das opções.',
    unknown_entity: 'Este valor não é conhecido.',
    invalid_reference: 'Este valor não pode ser usado aqui.',
    limit_reached: 'Muitos arquivos foram enviados daqui; tente de novo mais tarde.',
    file_too_large: 'Este arquivo é grande demais.',
    file_type: 'Arquivos deste tipo não são aceitos.',
  },
};

const es: PageStrings = {
  required: 'obligatoria',
  requiredNote: 'Las preguntas marcadas con * son obligatorias.',
  next: 'Siguiente',
  start: 'Empezar',
  back: 'Atrás',
  saveLater: 'Guardar y continuar más tarde',
  savedNotice: 'Tus respuestas están guardadas hasta el {date}. Para continuar más tarde, guarda la dirección de esta página (en marcadores) o copia este enlace:',
  resumeGone: 'Este enlace a respuestas guardadas caducó o ya no funciona; el formulario empieza de nuevo.',
  submit: 'Enviar respuestas',
  step: 'Paso {n} de {total}',
  errorSummary: 'Corrija las respuestas indicadas abajo.',
  saved: 'Borrador guardado.',
  saveFailed: 'No se pudo guardar el borrador; sus respuestas siguen en esta página.',
  offline: 'No tiene conexión, por eso esta página no se envió. Sus respuestas siguen aquí: envíela de nuevo cuando esté conectado.',
  yes: 'Sí',
  no: 'No',
  choose: 'Elija…',
  position: 'Posición de {option}',
  npsLow: '0: nada probable',
  npsHigh: '10: muy probable',
  stars: '{n} de {max} estrellas',
  utcNote: 'Hora en UTC.',
  zoneNote: 'Hora en tu zona horaria ({zone}).',
  moveUp: 'Subir {option}',
  moveDown: 'Bajar {option}',
  filesKept: 'Archivos ya adjuntos:',
  thanksTitle: 'Gracias',
  thanksText: 'Hemos recibido sus respuestas.',
  notFoundTitle: 'Página no encontrada',
  notFoundText: 'Este enlace no lleva a un formulario. Compruebe que se copió completo.',
  goneTitle: 'Este enlace ya no es válido',
  goneText: 'La invitación fue retirada o caducó. Contacte con quien la envió si aún desea responder.',
  closedTitle: 'Este formulario está cerrado',
  closedText: 'Ya no acepta respuestas.',
  answeredTitle: 'Ya respondido',
  answeredText: 'Ya se enviaron respuestas con este enlace. Gracias.',
  inviteRequiredTitle: 'Se necesita invitación',
  inviteRequiredText: 'Este formulario solo se puede responder con un enlace de invitación personal.',
  tooManyTitle: 'Demasiados intentos',
  tooManyText: 'Espere un minuto, vuelva atrás y envíe la página de nuevo. Los pasos anteriores se conservan.',
  staleTitle: 'Esta página caducó',
  staleText: 'La página estuvo abierta demasiado tiempo o no vino de este formulario. Abra el enlace de nuevo para responder.',
  languageSwitch: 'Idioma',
  errors: {
    required: 'Responda esta pregunta.',
    unknown_field: 'Esta respuesta no pertenece al formulario.',
    forbidden_target: 'Este valor no está permitido.',
    not_applicable: 'Esta pregunta no se aplica a sus otras respuestas.',
    invalid_type: 'Esta respuesta no es válida.',
    invalid_format: 'Esta respuesta no tiene el formato esperado.',
    invalid_value: 'Este valor no está permitido.',
    too_short: 'Ordene todas las opciones.',
    too_long: 'Esta respuesta es demasiado larga.',
    too_small: 'Este número es demasiado pequeño.',
    too_large: 'Este número es demasiado grande.',
    not_unique: 'Cada posición solo puede usarse una vez.',
    unknown_reference: 'Elija una de las opciones.',
    unknown_entity: 'Este valor no es conocido.',
    invalid_reference: 'Este valor no se puede usar aquí.',
    limit_reached: 'Se enviaron demasiados archivos desde aquí; inténtelo más tarde.',
    file_too_large: 'Este archivo es demasiado grande.',
    file_type: 'No se aceptan archivos de este tipo.',
  },
};

export const STRINGS: Record<FormLanguage, PageStrings> = { en, 'pt-BR': ptBR, es };

/** Each language named in itself, as the language switch shows it. */
export const LANGUAGE_NAMES: Record<FormLanguage, string> = { en: 'English', 'pt-BR': 'Português', es: 'Español' };

/** A locale tag (pt-BR, pt_PT, es-419, EN) as one of the page languages, or null. */
export function asPageLanguage(tag: string | null | undefined): FormLanguage | null {
  const primary = tag?.trim().toLowerCase().split(/[-_]/)[0];
  if (primary === 'pt') return 'pt-BR';
  return FORM_LANGUAGES.find((language) => language === primary) ?? null;
}

/** The first language of an Accept-Language header, by q weight, among `among` (default: every page language). */
export function fromAcceptLanguage(header: string | undefined, among: readonly FormLanguage[] = FORM_LANGUAGES): FormLanguage | null {
  const ranked = (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag, q: q === undefined ? 1 : Number(q), index };
    })
    .filter(({ q }) => q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const language = asPageLanguage(tag);
    if (language && among.includes(language)) return language;
  }
  return null;
}

/**
 * The order of languages (contract decisions, "Language of the pages"): the form's setting, else the
 * respondent's Accept-Language among en, pt-BR and es, else the company's locale, else en.
 */
export function pageLanguage(formLanguage: string | null | undefined, companyLocale: string | null | undefined, acceptLanguage: string | undefined): FormLanguage {
  return asPageLanguage(formLanguage) ?? fromAcceptLanguage(acceptLanguage) ?? asPageLanguage(companyLocale) ?? 'en';
}

/** Fills {name} placeholders. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}
