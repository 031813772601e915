/** Choosing the app's language (issue 75): the picker of the landing page, the phone's sidebar and Settings. */
export { LanguagePicker } from './components/LanguagePicker';
