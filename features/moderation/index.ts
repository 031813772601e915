/** Moderation (issue 23): the Report button every viewer sees, and the admin page's panel. */
export { ReportButton, ReportDialogPortal } from './components/ReportButton';
export { LazyAdminPanel } from './components/LazyAdminPanel';
