// A tool's input is JSON as the model wrote it: read its fields without trusting their types.

export type Fields = Record<string, unknown>;

export const fieldsOf = (value: unknown): Fields => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Fields) : {});

export const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');
