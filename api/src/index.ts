export { startApiServer, type ApiServer } from './api.server.js';
export { UploadService, type UploadServiceDeps } from './uploads/upload.service.js';
export { IntakeService, type IncomingMail, type IntakeOutcome } from './intake/intake.service.js';
export { IntakeAddressService } from './intake/intake-address.service.js';
export { startIntakeSmtpServer } from './intake/intake-smtp.server.js';
export { IntakeImapPoller } from './intake/intake-imap.poller.js';
