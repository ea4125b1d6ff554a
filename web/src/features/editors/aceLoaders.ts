/**
 * Dynamic imports of the Ace modes (generated from the server's file type table) and themes the
 * editor offers: each becomes its own small chunk, fetched the first time it is used (listed one
 * by one so the bundler can see them).
 */
export { MODE_LOADERS } from './aceModes.generated';

type Loader = () => Promise<unknown>;

export const THEME_LOADERS: Record<string, Loader> = {
  chrome: () => import('ace-builds/src-noconflict/theme-chrome'),
  clouds: () => import('ace-builds/src-noconflict/theme-clouds'),
  crimson_editor: () => import('ace-builds/src-noconflict/theme-crimson_editor'),
  dawn: () => import('ace-builds/src-noconflict/theme-dawn'),
  dreamweaver: () => import('ace-builds/src-noconflict/theme-dreamweaver'),
  eclipse: () => import('ace-builds/src-noconflict/theme-eclipse'),
  github: () => import('ace-builds/src-noconflict/theme-github'),
  iplastic: () => import('ace-builds/src-noconflict/theme-iplastic'),
  solarized_light: () => import('ace-builds/src-noconflict/theme-solarized_light'),
  textmate: () => import('ace-builds/src-noconflict/theme-textmate'),
  tomorrow: () => import('ace-builds/src-noconflict/theme-tomorrow'),
  xcode: () => import('ace-builds/src-noconflict/theme-xcode'),
  kuroir: () => import('ace-builds/src-noconflict/theme-kuroir'),
  katzenmilch: () => import('ace-builds/src-noconflict/theme-katzenmilch'),
  sqlserver: () => import('ace-builds/src-noconflict/theme-sqlserver'),
  ambiance: () => import('ace-builds/src-noconflict/theme-ambiance'),
  chaos: () => import('ace-builds/src-noconflict/theme-chaos'),
  clouds_midnight: () => import('ace-builds/src-noconflict/theme-clouds_midnight'),
  cobalt: () => import('ace-builds/src-noconflict/theme-cobalt'),
  idle_fingers: () => import('ace-builds/src-noconflict/theme-idle_fingers'),
  kr_theme: () => import('ace-builds/src-noconflict/theme-kr_theme'),
  merbivore: () => import('ace-builds/src-noconflict/theme-merbivore'),
  merbivore_soft: () => import('ace-builds/src-noconflict/theme-merbivore_soft'),
  mono_industrial: () => import('ace-builds/src-noconflict/theme-mono_industrial'),
  monokai: () => import('ace-builds/src-noconflict/theme-monokai'),
  pastel_on_dark: () => import('ace-builds/src-noconflict/theme-pastel_on_dark'),
  solarized_dark: () => import('ace-builds/src-noconflict/theme-solarized_dark'),
  terminal: () => import('ace-builds/src-noconflict/theme-terminal'),
  tomorrow_night: () => import('ace-builds/src-noconflict/theme-tomorrow_night'),
  tomorrow_night_blue: () => import('ace-builds/src-noconflict/theme-tomorrow_night_blue'),
  tomorrow_night_bright: () => import('ace-builds/src-noconflict/theme-tomorrow_night_bright'),
  tomorrow_night_eighties: () => import('ace-builds/src-noconflict/theme-tomorrow_night_eighties'),
  twilight: () => import('ace-builds/src-noconflict/theme-twilight'),
  vibrant_ink: () => import('ace-builds/src-noconflict/theme-vibrant_ink'),
};
