export declare const BUILD_INPUTS: readonly string[]
export declare const BUILD_OUTPUT: string
export declare function buildIsStale(root: string): boolean
