export * from './app-config.js';
export * from './common.js';
export * from './session.js';
export * from './signin.js';
export * from './users.js';
export * from './imagesets.js';
export * from './documentimages.js';
export * from './acl.js';
