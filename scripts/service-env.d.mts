export declare const MMAP_THRESHOLD: string;
export declare function serviceEnv(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
