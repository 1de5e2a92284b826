/** The kernel's port unless --port says otherwise. */
export const DEFAULT_PORT = 7420;
