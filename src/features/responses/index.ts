/** The responses feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { checkPeriod, filterSql, type ResponseFilter } from './response-filter.js';
export { recordResponse, type RecordResponseDeps, type RecordResponseInput } from './record-response.js';
export { type ResponseConsumer, type ResponseHandler, type StoredResponse } from './response-consumer.js';
export { seedDemoResponses } from './seed-demo-responses.js';
export { getResponse } from './get-response.js';
