/** Sharing a post or a profile: the share sheet, or the link copied (issue 68, item 27). */
export { ShareButton, useShareLink } from './components/ShareButton';
