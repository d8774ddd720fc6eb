/** The accounts start-server.mjs creates before the server starts: one per spec, so specs don't see each other's data. */
export const ADMIN = { email: 'admin@e2e.test', password: 'admin-password-e2e', name: 'Ada Admin' };
export const RESEARCHER = { email: 'researcher@e2e.test', password: 'researcher-password-e2e', name: 'Rosa Researcher' };
export const ARCHIVIST = { email: 'archivist@e2e.test', password: 'archivist-password-e2e', name: 'Arne Archivist' };
/** An admin: creates the search index its own set is then put into. */
export const CURATOR = { email: 'curator@e2e.test', password: 'curator-password-e2e', name: 'Cora Curator' };
/** Corrects the text lines of a page of her own. */
export const TRANSCRIBER = { email: 'transcriber@e2e.test', password: 'transcriber-password-e2e', name: 'Tess Transcriber' };
/** Draws polygons and lines on a page of her own. */
export const DRAFTER = { email: 'drafter@e2e.test', password: 'drafter-password-e2e', name: 'Dora Drafter' };
/** Compares two transcriptions of a page of her own. */
export const COMPARER = { email: 'comparer@e2e.test', password: 'comparer-password-e2e', name: 'Cleo Comparer' };
/** Builds a field set and describes the pages of her own set with it. */
export const ANNOTATOR = { email: 'annotator@e2e.test', password: 'annotator-password-e2e', name: 'Anna Annotator' };
/** An admin who manages groups, access and API keys. */
export const GATEKEEPER = { email: 'gatekeeper@e2e.test', password: 'gatekeeper-password-e2e', name: 'Gus Gatekeeper' };
/** A plain user who gets access to a set through a group, and is then disabled. */
export const VISITOR = { email: 'visitor@e2e.test', password: 'visitor-password-e2e', name: 'Vera Visitor' };
/** An admin who uploads, inspects, publishes, downloads and deletes recognition models. */
export const MODELER = { email: 'modeler@e2e.test', password: 'modeler-password-e2e', name: 'Milo Modeler' };
/** Signs in at 127.0.0.1 rather than localhost, and is sent a link with someone else's session. */
export const TRAVELLER = { email: 'traveller@e2e.test', password: 'traveller-password-e2e', name: 'Tara Traveller' };
/** Signs in to get a session of his own, then plants it in a link for someone else. */
export const INTRUDER = { email: 'intruder@e2e.test', password: 'intruder-password-e2e', name: 'Ivo Intruder' };
/** A plain user on a first visit: uploads, sorts, looks around, and finds the admin screens closed with a reason. */
export const NEWCOMER = { email: 'newcomer@e2e.test', password: 'newcomer-password-e2e', name: 'Nina Newcomer' };
/** An admin who shares a public set and grants access to it. */
export const HOST = { email: 'host@e2e.test', password: 'host-password-e2e', name: 'Hugo Host' };
/** An admin who opens every screen of the menus, each loading its code on first use. */
export const GUIDE = { email: 'guide@e2e.test', password: 'guide-password-e2e', name: 'Gil Guide' };
/** Runs Tesseract on a page of her own from the job form, makes an EPUB of the set, and cancels a job that waits for a worker. */
export const JOBBER = { email: 'jobber@e2e.test', password: 'jobber-password-e2e', name: 'Jo Jobber' };
/** An admin who makes a search index of a set of pages, then searches it with a typo, filters, sorts, pages and opens a hit on its line. */
export const SEARCHER = { email: 'searcher@e2e.test', password: 'searcher-password-e2e', name: 'Sam Searcher' };
/** Finds similar hands among pages of her own, compares them, dates an undated page and reads a confusion matrix. */
export const DATER = { email: 'dater@e2e.test', password: 'dater-password-e2e', name: 'Dana Dater' };
/** Describes page images with the built-in description, and sees a refused file's message. */
export const DESCRIBER = { email: 'describer@e2e.test', password: 'describer-password-e2e', name: 'Dirk Describer' };
/** Annotates pages of her own with the recognised text and similar hands beside the image (analyzeimagemanualnew). */
export const READER = { email: 'reader@e2e.test', password: 'reader-password-e2e', name: 'Rita Reader' };
/** A plain user whose statistics count only what he may read. */
export const COUNTER = { email: 'counter@e2e.test', password: 'counter-password-e2e', name: 'Cato Counter' };
/** An admin who reads the dashboard: the statistics of everything, the job queue and storage. */
export const OVERSEER = { email: 'overseer@e2e.test', password: 'overseer-password-e2e', name: 'Otto Overseer' };
/** Comes back to her image sets in a new window: the page comes with them drawn in it, and the app takes them over. */
export const RETURNER = { email: 'returner@e2e.test', password: 'returner-password-e2e', name: 'Rena Returner' };
