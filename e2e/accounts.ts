/** The accounts start-server.mjs creates before the server starts. */
export const ADMIN = { email: 'admin@e2e.test', password: 'admin-password-e2e', name: 'Ada Admin' };
export const RESEARCHER = { email: 'researcher@e2e.test', password: 'researcher-password-e2e', name: 'Rosa Researcher' };
