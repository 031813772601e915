// ESLint flat config. docs/architecture.md describes the layers the import rules guard.
// Syntax-only presets, no type-checked rules: `tsc --noEmit` checks the types, and lint must stay
// fast on two cores.
import fs from 'node:fs';
import path from 'node:path';
import { defineConfig, globalIgnores } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import nextPlugin from '@next/eslint-plugin-next';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import prettier from 'eslint-config-prettier/flat';
import globals from 'globals';

const root = import.meta.dirname;

// What the browser bundle is made of. The server imports none of it.
const CLIENT_DIRS = ['features', 'store', 'components', 'services', 'hooks', 'pages', 'styles', 'themes'];

// Each feature folder may import its own files and other features' public surface (index.ts) only.
// The folders are read from disk, so a new feature is guarded without editing this file.
const featuresDir = path.join(root, 'features');
const features = fs.existsSync(featuresDir)
  ? fs
      .readdirSync(featuresDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
  : [];
const featureZones = features.map((feature) => ({
  target: `./features/${feature}`,
  from: './features',
  except: [
    `./${feature}`,
    ...features
      .filter((other) => other !== feature)
      .flatMap((other) => [`./${other}/index.ts`, `./${other}/index.tsx`]),
  ],
  message: 'Import another feature through its index.ts (features/<name>), not its internals.',
}));
const featureIndexes = features.flatMap((feature) => [`./${feature}/index.ts`, `./${feature}/index.tsx`]);

export default defineConfig([
  globalIgnores([
    'node_modules/',
    '.next/',
    '.tools',
    'data/',
    'reports/',
    'test-results/',
    'screenshots/',
    'coverage/',
    'public/',
    'next-env.d.ts',
  ]),

  js.configs.recommended,
  tseslint.configs.recommended,
  {
    name: 'posts/base',
    rules: {
      // A leading `_` marks a parameter or destructured name that is unused on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Module augmentation (styled-components' DefaultTheme extends AppTheme) needs an interface.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  {
    // no-undef runs on plain JavaScript only (typescript-eslint turns it off for TypeScript).
    name: 'posts/javascript-globals',
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // The service worker's script runs in the browser's worker scope (served by server/pwa/serviceWorker.ts).
    name: 'posts/service-worker',
    files: ['server/pwa/worker.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },

  // React: the rules of hooks and the React Compiler's checks (purity, refs, state in effects).
  {
    files: ['**/*.tsx', '{hooks,store,features}/**/*.ts'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    name: 'posts/react-hooks',
    files: ['**/*.tsx', '{hooks,store,features}/**/*.ts'],
    rules: {
      // A warning never fails `npm run lint`; a missed dependency is a stale-closure bug.
      'react-hooks/exhaustive-deps': 'error',
    },
  },

  // Accessibility of the JSX. The shared link and button components count as <a> and <button>.
  {
    files: ['**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
    settings: {
      'jsx-a11y': { components: { AppLink: 'a', ButtonLink: 'a', Button: 'button', IconButton: 'button' } },
    },
  },

  // Next.js's checks (links to pages, <head> and document rules, scripts) on the client side.
  {
    name: 'posts/next',
    files: ['{pages,components,features}/**/*.{ts,tsx}'],
    plugins: { '@next/next': nextPlugin },
    settings: { next: { rootDir: root } },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs['core-web-vitals'].rules,
      // Images come from the app's own pipeline (sized variants, srcset, thumbhash placeholders);
      // next/image's optimizer is not used.
      '@next/next/no-img-element': 'off',
    },
  },

  // The layers. import-x's built-in resolver follows the relative imports (tsconfig has no aliases).
  {
    name: 'posts/imports',
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.json'] })],
    },
    rules: {
      // Type-only imports (`import type`, or every specifier marked `type`) are not followed, so the
      // store <-> slice loop passes when one side imports types only; any value cycle fails.
      'import-x/no-cycle': 'error',
      // The layer rules skip what they cannot resolve; an unresolvable relative import fails here.
      'import-x/no-unresolved': ['error', { ignore: ['^[^.]'] }],
      'import-x/no-self-import': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            {
              target: './lib',
              from: '.',
              except: ['./lib', './node_modules'],
              message: 'lib/ is isomorphic and imports nothing of the app.',
            },
            {
              target: './server',
              from: CLIENT_DIRS.map((dir) => `./${dir}`),
              message: 'The server never imports client code; share it through lib/.',
            },
            ...featureZones,
            {
              target: ['./pages', './components/shell'],
              from: './features',
              except: featureIndexes,
              message: 'Pages and the shell use a feature through its index.ts (features/<name>).',
            },
            {
              target: ['./components/ui', './hooks', './services', './styles', './themes'],
              from: './features',
              message: 'Shared code sits below the features and imports none of them.',
            },
            {
              target: './services',
              from: ['./store', './components', './pages', './hooks'],
              message: 'services/ (the HTTP client) sits below the store and the UI.',
            },
          ],
        },
      ],
    },
  },

  // Last: turns off every stylistic rule that Prettier owns.
  prettier,
]);
