/**
 * Settings' "Followed tags" (issue 73): the hashtags whose public posts the home feed shows, each
 * with Unfollow. Loaded with the settings' later sections, after the page's first render.
 */
import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { apiUrls } from '../../../lib/apiUrls';
import { links } from '../../../lib/pages';
import { AppLink } from '../../../components/ui/AppLink';
import { Button } from '../../../components/ui/Button';
import { Panel } from '../../../components/ui/Panel';
import { Spinner } from '../../../components/ui/Spinner';
import { apiClient, errorMessage } from '../../../services/apiClient';
import { useAppDispatch } from '../../../store/hooks';
import { showToast } from '../../toasts';
import { appTheme } from '../../../themes';
import { SETTINGS_SECTIONS } from '../lib/sections';
import { SettingsItem, SettingsList } from './SettingsList';

const Item = styled(SettingsItem)`
  a { min-width: 0; overflow-wrap: anywhere; font-weight: 600; }
`;

const Muted = styled.p`
  color: ${appTheme.color.textMuted};
`;

export function FollowedTagsSettings() {
  const dispatch = useAppDispatch();
  const t = useTranslations('settings');
  const [tags, setTags] = useState<string[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    apiClient.get<{ name: string }[]>(apiUrls.followedTags()).then(
      ({ data }) => live && setTags(data.map((followed) => followed.name)),
      (error: unknown) => live && dispatch(showToast(errorMessage(error), 'error')),
    );
    return () => {
      live = false;
    };
  }, [dispatch]);

  async function unfollow(tag: string) {
    setBusy(tag);
    try {
      await apiClient.delete(`${apiUrls.tag(tag)}/follow`);
      setTags((list) => list?.filter((name) => name !== tag) ?? null);
      dispatch(showToast(t('tags.unfollowed', { tag })));
    } catch (error) {
      dispatch(showToast(errorMessage(error), 'error'));
    } finally {
      setBusy(null);
    }
  }

  return (
    <Panel id={SETTINGS_SECTIONS.tags} aria-labelledby="followed-tags-settings">
      <h2 id="followed-tags-settings">{t('tags.heading')}</h2>
      <p className="lead">{t('tags.lead')}</p>
      {tags === null ? (
        <Spinner />
      ) : tags.length === 0 ? (
        <Muted>{t('tags.empty')}</Muted>
      ) : (
        <SettingsList aria-label={t('tags.list')}>
          {tags.map((tag) => (
            <Item key={tag}>
              <AppLink href={links.tagged([tag])}>
                <bdi>#{tag}</bdi>
              </AppLink>
              <Button
                $variant="secondary"
                $size="sm"
                aria-label={t('tags.unfollowOf', { tag })}
                disabled={busy !== null}
                aria-busy={busy === tag}
                onClick={() => void unfollow(tag)}
              >
                {t('tags.unfollow')}
              </Button>
            </Item>
          ))}
        </SettingsList>
      )}
    </Panel>
  );
}
