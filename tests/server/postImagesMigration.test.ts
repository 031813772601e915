/**
 * Migration 033 (issue 71): every post there was becomes a one-photo album, its image, alt text
 * and crop at position 0 of `post_images`, `image_count` 1.
 */
import * as migration033 from '../../server/db/migrations/033_post_images';
import { createPost } from './factories';
import { createTestApp, signIn } from './helpers';

describe('migration 033', () => {
  it('makes every post there was a one-photo album: its image, alt text and crop at position 0', async () => {
    // An app of its own: taking a migration down and up changes tables under PostgreSQL's prepared statements.
    const own = await createTestApp();
    try {
      const dan = await signIn(own.app);
      const first = await createPost(own.app, dan, { message: 'One' });
      const second = await createPost(own.app, dan, { message: 'Two' });
      await own.db.kysely
        .updateTable('posts')
        .set({ alt: 'Described', crop: 'fit' })
        .where('id', '=', second._id)
        .execute();
      await migration033.down(own.db.kysely as never);
      await migration033.up(own.db.kysely as never);
      const rows = await own.db.kysely
        .selectFrom('post_images')
        .select(['post_id', 'position', 'image', 'alt', 'crop'])
        .orderBy('post_id')
        .execute();
      expect(rows).toEqual([
        { post_id: first._id, position: 0, image: first.image, alt: '', crop: '' },
        { post_id: second._id, position: 0, image: second.image, alt: 'Described', crop: 'fit' },
      ]);
      const counts = await own.db.kysely.selectFrom('posts').select('image_count').execute();
      expect(counts.map((row) => Number(row.image_count))).toEqual([1, 1]);
    } finally {
      await own.close();
    }
  });
});
