// Notices for operators (what other modules and app.ts may use of them).
export { Notice, NoticeListQuery } from './notices-schemas.js';
export { createNoticesService, type NoticeInput, type NoticesService } from './notices-service.js';
