/** The share target (issue 74, item 3): an image shared from another app opens the composer. */
export { SharedImageOpener } from './components/SharedImageOpener';
