// What the benchmarks (bench/) may use of the test harness: services and processes of their own,
// accounts and visitors, and reading a process's state. Imported there as #test-support/harness.
export { createSubscriber, signedUpSubscriber, signUpUnconfirmed } from './accounts.js';
export { Deployment, type DeploymentMode } from './deployment.js';
export { freePort } from './free-port.js';
export { processesNamed, procStatFields } from './process-output.js';
export { rawUpload } from './raw-upload.js';
export { startServiceProcess } from './service-process.js';
export { provisionServices } from './services.js';
export { uniqueIp, Visitor } from './visitor.js';
