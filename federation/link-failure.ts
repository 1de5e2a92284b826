import type { HostDownReason } from '../spoke/model/types';

/** Why a host is down, with a message that says what to do about it. */
export class LinkFailure extends Error {
  constructor(
    readonly reason: HostDownReason,
    message: string,
  ) {
    super(message);
  }

  /** Failures only a person can fix: retrying would hammer the host for nothing. */
  get needsPerson(): boolean {
    return this.reason === 'AUTH_FAILED' || this.reason.startsWith('HOST_KEY_') || this.reason === 'VERSION_MISMATCH';
  }
}
