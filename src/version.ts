// jwsim's version, recorded in manifests and in the inputs hash of checkpoints and shards.
export const JWSIM_VERSION = '0.1.0';
