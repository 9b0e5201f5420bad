// The esbuild options every bundle of the project shares (the CLI's, the library's): one ESM file per
// entry, the decoder bundled in. `nodeEsm` adds Node's platform and version for the CLI and the
// library's Node entry.
export const esm = {
  bundle: true,
  format: 'esm',
  logLevel: 'warning',
};

export const nodeEsm = { ...esm, platform: 'node', target: 'node20' };
