// Preloaded (`node --import`) into the independent peer's process (tests/server/independentPeer.ts).
// @evanp/activitypub-bot 0.51.2 asks for activitystrea.ms ^4, which the npm registry reachable here
// does not have; package.json's overrides give it 3.1.0, whose only missing piece it uses is
// `registerContext` (JSON-LD contexts it keeps offline instead of fetching them), the constant
// `mediaType` and an object's `isActivity()`. This adds those three, nothing else: the peer's
// ActivityPub code runs as published.
import { createRequire } from 'node:module';

const require = createRequire(createRequire(import.meta.url).resolve('activitystrea.ms'));
const Loader = require('./contextloader.js');
const registered = Object.create(null);
const makeDocLoader = Loader.prototype.makeDocLoader;
// Every loader activitystrea.ms makes (it makes them when its modules load) reads these first.
Loader.prototype.makeDocLoader = function () {
  const inner = makeDocLoader.call(this);
  return async (url) =>
    url in registered ? { contextUrl: null, document: registered[url], documentUrl: url } : inner(url);
};
const as2 = require('./activitystreams.js');
as2.registerContext ??= (url, context) => {
  registered[url] = context;
};
as2.mediaType ??= 'application/activity+json';

// Whether the object's type is Activity or a subtype of it (Create, Follow, ...), by the vocabulary.
const Base = require('./models/_base.js');
const reasoner = require('./reasoner.js');
const { Activity } = require('vocabs-as');
if (!('isActivity' in Base.prototype)) {
  // Not enumerable: activitystrea.ms writes an object's enumerable properties out.
  Object.defineProperty(Base.prototype, 'isActivity', {
    value() {
      return [this.type ?? []].flat().some((type) => reasoner.node(type).is(Activity));
    },
  });
}
