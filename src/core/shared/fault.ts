// Test-only fault injection: a named step at which the process SIGKILLs itself when the
// environment variable ORCHARD_FAULT_AT names that step. Tests use it to prove that a crash at
// that step converges on the next run. Without the variable it does nothing.
export function faultPoint(name: string): void {
  if (process.env.ORCHARD_FAULT_AT === name) process.kill(process.pid, "SIGKILL");
}
