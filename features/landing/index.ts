/** The landing page a visitor sees at `/`. */
export { Hero } from './components/Hero';
export { LandingFooter } from './components/LandingFooter';
