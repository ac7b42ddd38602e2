export { startApiServer, type ApiServer } from './api.server.js';
export { UploadService } from './upload.service.js';
