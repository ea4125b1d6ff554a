/// <reference types="vite/client" />

/** Front-end version, read from /VERSION at build time (see vite.config.ts). */
declare const __APP_VERSION__: string;
