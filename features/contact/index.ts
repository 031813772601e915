/** The contact page: the instance's name and address. */
export { ContactCard } from './components/ContactCard';
