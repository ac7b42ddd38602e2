// The mail stack, apart from the api's entry (`@receipts/api/intake`): the api loads it only
// where mail comes in (startIntake).
export { IntakeService, type IncomingMail, type IntakeOutcome } from './intake.service.js';
export { startIntakeSmtpServer } from './intake-smtp.server.js';
export { IntakeImapPoller } from './intake-imap.poller.js';
export { MailReader } from './mail.reader.js';
