/** Colours a new tag starts with, in turn; the user may pick any. */
const PALETTE = ['#2d62cf', '#23784a', '#c2410c', '#9333ea', '#b42318', '#0e7490', '#a16207'];

/** The colour a host's next tag starts with, given how many it has. */
export const nextColor = (count: number): string => PALETTE[count % PALETTE.length];
