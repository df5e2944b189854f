import { writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The nice value of what gives way to the server's restart. */
const LOW = 10;

/**
 * Sets the priority of a process's scheduling group. Every child of npm run dev is detached, so it
 * leads a session of its own, and where Linux groups each session's processes for the scheduler
 * (autogroup, the default on desktops and many servers) a process's nice value counts only within
 * its group: the group's decides its share against the server's restart. Unlike a process's own, it
 * may be set back to 0 without privileges. Elsewhere that file is absent, and nothing changes.
 */
function setGroupPriority(pid: number, nice: number): void {
  try {
    writeFileSync(`/proc/${pid}/autogroup`, String(nice));
  } catch {
    // No autogroup here (another OS, or a kernel that schedules without it): the process's nice value counts.
  }
}

/** For good: the process, and its scheduling group where there is one. */
export function lowerPriority(pid: number): void {
  setPriority(pid, LOW);
  setGroupPriority(pid, LOW);
}

/**
 * Processes that give way to the server's restart (the type check): at a low CPU priority
 * while one is under way, so that they do not slow it, and at the usual one otherwise, so that what
 * they report comes at once even on a machine busy with other work. Where only a process's own nice
 * value counts, which cannot be set back, they stay at the low one.
 */
export class GiveWay {
  private readonly pids = new Set<number>();
  private restarting = false;

  add(pid: number): void {
    this.pids.add(pid);
    setPriority(pid, LOW);
    setGroupPriority(pid, this.restarting ? LOW : 0);
  }

  delete(pid: number): void {
    this.pids.delete(pid);
  }

  /** A restart begins (true) or has ended (false). */
  restart(underWay: boolean): void {
    this.restarting = underWay;
    for (const pid of this.pids) setGroupPriority(pid, underWay ? LOW : 0);
  }
}
