/** The rates feature's public face (docs/CONTRIBUTING.md): nothing other features need yet; the CLI loads its service directly. */
export {};
