export { startApiServer, type ApiServer } from './api.server.js';
export { UploadService, type UploadServiceDeps } from './uploads/upload.service.js';
export { IntakeAddressService } from './intake/intake-address.service.js';
