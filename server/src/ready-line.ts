/** The line that says the service is up (scripts and the tests wait for it): printed once, by the process that owns the port. */
export function printReadyLine(port: number): void {
  process.stdout.write(`\nReceipts service ready: http://localhost:${port}\n\n`);
}
