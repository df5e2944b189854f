import { writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The nice value of what npm run dev runs beside the server: the type check and the lint. */
const LOW = 10;

/**
 * Lowers a process's CPU priority, so that it takes little from the server's restart. Every child
 * of npm run dev is detached, so it leads a session of its own, and where Linux groups each
 * session's processes for the scheduler (autogroup, the default on desktops and many servers) a
 * process's nice value counts only against the rest of its group: the group's is lowered too, or
 * the process competes with the restart as an equal. Elsewhere that file is absent.
 */
export function lowerPriority(pid: number): void {
  setPriority(pid, LOW);
  try {
    writeFileSync(`/proc/${pid}/autogroup`, String(LOW));
  } catch {
    // No autogroup here (another OS, or a kernel that schedules without it): the nice value is enough.
  }
}
