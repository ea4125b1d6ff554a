export * from './server.js';
export * from './browser.js';
export * from './expect.js';
export * from './suite.js';
export * from './ui.js';
export * from './a11y.js';
export * from './api.js';
export * from './explorer.js';
