/** What dist/ was built from: a hash of every source file's path, size and modification time. */
export function sourceStamp(root: string): string;
