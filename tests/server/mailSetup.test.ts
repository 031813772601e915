import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../server/config';
import { outbox } from '../../server/mail/outbox';

describe('mail configuration', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'posts-mailconfig-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, ...env });

  it('links start with PUBLIC_URL, else the address the server listens on', () => {
    expect(config({ PUBLIC_URL: 'https://posts.example/' }).siteUrl).toBe('https://posts.example');
    expect(config({ HOST: '127.0.0.1', PORT: '4000' }).siteUrl).toBe('http://127.0.0.1:4000');
    expect(config({ HOST: '0.0.0.0', PORT: '4000' }).siteUrl).toBe('http://localhost:4000');
    expect(config({ HOST: '::1', PORT: '4000' }).siteUrl).toBe('http://[::1]:4000');
  });

  it('sends in the instance name unless MAIL_FROM says otherwise', () => {
    expect(config({ INSTANCE_NAME: 'Harbour', PUBLIC_URL: 'https://posts.example' }).mailFrom).toBe(
      'Harbour <no-reply@posts.example>',
    );
    expect(config({}).mailFrom).toBe('Posts <no-reply@localhost>');
    expect(config({ MAIL_FROM: 'Team <team@example.com>' }).mailFrom).toBe('Team <team@example.com>');
  });

  it('takes smtp:// and smtps:// URLs, refuses anything else without echoing it', () => {
    expect(config({}).smtpUrl).toBeNull();
    expect(config({ SMTP_URL: 'smtp://user:pass@mail.example:587' }).smtpUrl).toBe('smtp://user:pass@mail.example:587');
    expect(config({ SMTP_URL: 'smtps://mail.example:465' }).smtpUrl).toBe('smtps://mail.example:465');
    expect(() => config({ SMTP_URL: 'http://user:secret@mail.example' })).toThrow(/smtp:\/\//);
    expect(() => config({ SMTP_URL: 'http://user:secret@mail.example' })).not.toThrow(/secret/);
    expect(() => config({ SMTP_URL: 'not a url' })).toThrow('SMTP_URL must be a URL');
  });
});

describe('outbox', () => {
  it('runs tasks after the caller goes on, reports failures, and drops what does not fit', async () => {
    const errors: unknown[] = [];
    let dropped = 0;
    const box = outbox({
      concurrency: 1,
      maxQueued: 2,
      onError: (e) => errors.push(e),
      onDropped: () => (dropped += 1),
    });
    const ran: string[] = [];
    box.enqueue(async () => {
      ran.push('first');
    });
    box.enqueue(async () => {
      throw new Error('mail server down');
    });
    box.enqueue(async () => {
      ran.push('third');
    });
    expect(ran).toEqual([]);
    await box.settled();
    expect(ran).toEqual(['first']);
    expect(errors).toHaveLength(1);
    expect(dropped).toBe(1);
    box.enqueue(async () => {
      ran.push('later');
    });
    await box.settled();
    expect(ran).toEqual(['first', 'later']);
  });
});
