/** The address of stored email metadata, or '' for something unreadable. */
export const emailAddressOf = (metadata: Record<string, unknown>): string => (typeof metadata.address === 'string' ? metadata.address : '');
