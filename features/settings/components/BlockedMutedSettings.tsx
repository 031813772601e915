import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import type { UserSummary } from '../../../lib/types';
import { links } from '../../../lib/pages';
import { useAppDispatch } from '../../../store/hooks';
import { AppLink } from '../../../components/ui/AppLink';
import { Avatar } from '../../../components/ui/Avatar';
import { Button } from '../../../components/ui/Button';
import { Panel } from '../../../components/ui/Panel';
import { Spinner } from '../../../components/ui/Spinner';
import { appTheme } from '../../../themes';
import type { Relation } from '../state/securityApi';
import { fetchRelations, undoRelation } from '../state/securityThunks';
import { SettingsItem, SettingsList } from './SettingsList';
import { SETTINGS_SECTIONS } from '../lib/sections';

const Item = styled(SettingsItem)`
  a { display: flex; align-items: center; gap: 10px; min-width: 0; overflow-wrap: anywhere; font-weight: 600; }
`;

const Muted = styled.p`
  color: ${appTheme.color.textMuted};
`;

/** A list's texts, named whole so the catalogue test sees the keys. */
function useRelationTexts(relation: Relation) {
  const t = useTranslations('settings');
  return relation === 'blocks'
    ? {
        title: t('blocked.blocks'),
        empty: t('blocked.blocksEmpty'),
        undo: t('blocked.unblock'),
        undoOf: (username: string) => t('blocked.unblockOf', { username }),
      }
    : {
        title: t('blocked.mutes'),
        empty: t('blocked.mutesEmpty'),
        undo: t('blocked.unmute'),
        undoOf: (username: string) => t('blocked.unmuteOf', { username }),
      };
}

/** One list, page by page, each person with Unblock (or Unmute). */
function RelationList({ relation }: { relation: Relation }) {
  const dispatch = useAppDispatch();
  const t = useTranslations('settings');
  const text = useRelationTexts(relation);
  const [people, setPeople] = useState<UserSummary[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function load(more?: string) {
    const result = await dispatch(fetchRelations({ relation, next: more }));
    if (!fetchRelations.fulfilled.match(result)) return;
    setPeople((list) => [...(more ? (list ?? []) : []), ...result.payload.items]);
    setNext(result.payload.next);
  }

  useEffect(() => {
    void dispatch(fetchRelations({ relation })).then((result) => {
      if (!fetchRelations.fulfilled.match(result)) return;
      setPeople(result.payload.items);
      setNext(result.payload.next);
    });
  }, [dispatch, relation]);

  async function undo(username: string) {
    setBusy(username);
    const result = await dispatch(undoRelation({ relation, username }));
    setBusy(null);
    if (undoRelation.fulfilled.match(result)) setPeople((list) => list?.filter((p) => p.username !== username) ?? null);
  }

  const headingId = `relation-${relation}`;
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>{text.title}</h3>
      {people === null ? (
        <Spinner />
      ) : people.length === 0 ? (
        <Muted>{text.empty}</Muted>
      ) : (
        <SettingsList>
          {people.map((person) => (
            <Item key={person._id}>
              <AppLink href={links.profile(person.username)}>
                <Avatar src={person.avatar} name={person.username} size={32} />
                {person.username}
              </AppLink>
              <Button
                $variant="secondary"
                $size="sm"
                aria-label={text.undoOf(person.username)}
                disabled={busy !== null}
                aria-busy={busy === person.username}
                onClick={() => void undo(person.username)}
              >
                {text.undo}
              </Button>
            </Item>
          ))}
        </SettingsList>
      )}
      {next && (
        <Button $variant="secondary" $size="sm" onClick={() => void load(next)}>
          {t('blocked.more')}
        </Button>
      )}
    </section>
  );
}

/** Settings' "Blocked and muted": the people you block and mute, to undo either. */
export function BlockedMutedSettings() {
  const t = useTranslations('settings');
  return (
    <Panel id={SETTINGS_SECTIONS.blocked} aria-labelledby="blocked-muted-settings">
      <h2 id="blocked-muted-settings">{t('blocked.heading')}</h2>
      <p className="lead">{t('blocked.lead')}</p>
      <RelationList relation="blocks" />
      <RelationList relation="mutes" />
    </Panel>
  );
}
