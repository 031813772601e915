/**
 * Settings' "Followed tags" (issue 73): the hashtags whose public posts the home feed shows, each
 * with Unfollow. Loaded with the settings' later sections, after the page's first render.
 */
import { useEffect, useState } from 'react';
import styled from 'styled-components';
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
  const [tags, setTags] = useState<string[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    apiClient.get<{ name: string }[]>(apiUrls.followedTags()).then(
      ({ data }) => live && setTags(data.map((t) => t.name)),
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
      setTags((list) => list?.filter((t) => t !== tag) ?? null);
      dispatch(showToast(`Unfollowed #${tag}`));
    } catch (error) {
      dispatch(showToast(errorMessage(error), 'error'));
    } finally {
      setBusy(null);
    }
  }

  return (
    <Panel id={SETTINGS_SECTIONS.tags} aria-labelledby="followed-tags-settings">
      <h2 id="followed-tags-settings">Followed tags</h2>
      <p className="lead">Public posts with these tags show in your home feed, from anyone.</p>
      {tags === null ? (
        <Spinner />
      ) : tags.length === 0 ? (
        <Muted>You follow no tags. Open a tag&apos;s page and press Follow.</Muted>
      ) : (
        <SettingsList aria-label="Followed tags">
          {tags.map((tag) => (
            <Item key={tag}>
              <AppLink href={links.tagged([tag])}>#{tag}</AppLink>
              <Button
                $variant="secondary"
                $size="sm"
                aria-label={`Unfollow #${tag}`}
                disabled={busy !== null}
                aria-busy={busy === tag}
                onClick={() => void unfollow(tag)}
              >
                Unfollow
              </Button>
            </Item>
          ))}
        </SettingsList>
      )}
    </Panel>
  );
}
