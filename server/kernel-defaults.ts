/** The kernel's port unless --port says otherwise. */
export const DEFAULT_PORT = 7420;

/** How long node:http waits on a client's socket before closing it, in ms. */
export interface HttpTimeouts {
  /** from a request's first byte to the end of its headers: a slow-header client holds nothing longer */
  headersMs: number;
  /** from a request's first byte to the end of its body (the answer may take longer) */
  requestMs: number;
  /** an idle keep-alive connection between requests */
  keepAliveMs: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 };

/** What Loom's copy of the transcripts may take on disk (compressed) unless --archive-cap says otherwise: about 25 GB of transcripts. */
export const DEFAULT_ARCHIVE_CAP_BYTES = 4 * 1024 ** 3;
