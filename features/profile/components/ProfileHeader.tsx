import { useState } from 'react';
import { ReportDialogPortal } from '../../moderation';
import { ShareButton, useShareLink } from '../../share';
import { type MenuItem, MenuButton } from '../../../components/ui/MenuButton';
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import type { Profile, ProfileField } from '../../../lib/types';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { useToasts } from '../../../store/toasts';
import { followUser, selectFollowState, unfollowUser } from '../state/userSlice';
import { type RelationAction, changeRelation, relationToasts } from '../state/relations';
import { Avatar } from '../../../components/ui/Avatar';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { Button, ButtonLink } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { PersonName } from '../../../components/ui/PersonName';
import { Spinner } from '../../../components/ui/Spinner';
import { appTheme } from '../../../themes';
import { links } from '../../../lib/pages';
import { AppLink } from '../../../components/ui/AppLink';

const Banner = styled.div<{ $src: string | null }>`
  height: 180px;
  background: ${({ $src, theme }) =>
    $src
      ? `center / cover no-repeat url("${$src}")`
      : `linear-gradient(135deg, ${theme.color.accentSoft}, ${theme.color.surfaceRaised})`};
  background-color: ${appTheme.color.surfaceRaised};
  @media (min-width: 768px) { height: 260px; }
`;

const Inner = styled.div`
  max-width: 935px;
  margin: 0 auto;
  padding: 0 16px;
`;

const Top = styled.div`
  display: flex;
  align-items: flex-end;
  justify-content: space-between;
  gap: 12px;
  margin-top: -48px;
  @media (min-width: 768px) { margin-top: -64px; }
`;

const AvatarRing = styled.div`
  border-radius: 50%;
  border: 4px solid ${appTheme.color.bg};
  background: ${appTheme.color.bg};
  > span { width: 96px !important; height: 96px !important; }
  @media (min-width: 768px) { > span { width: 128px !important; height: 128px !important; } }
`;

const Name = styled.h1`
  margin-top: 12px;
  font-size: 24px;
  overflow-wrap: anywhere;
`;

/** `@username` under a display name. */
const Handle = styled.p`
  margin: 2px 0 0;
  color: ${appTheme.color.textMuted};
  overflow-wrap: anywhere;
`;

/** Profile links: label, value, and a check mark once the linked page links back (`rel="me"`). */
const Fields = styled.dl`
  margin: 12px 0 0;
  max-width: 600px;
  display: grid;
  grid-template-columns: minmax(0, max-content) minmax(0, 1fr);
  gap: 4px 16px;
  font-size: 14px;
  > div { display: grid; grid-column: 1 / -1; grid-template-columns: subgrid; }
  dt { color: ${appTheme.color.textMuted}; font-weight: 600; overflow-wrap: anywhere; }
  dd { margin: 0; min-width: 0; overflow-wrap: anywhere; display: flex; gap: 4px; align-items: baseline; }
  a { color: ${appTheme.color.text}; text-decoration: underline; }
  .verified { color: ${appTheme.color.success}; align-self: center; flex: none; }
`;

const Description = styled.p`
  margin: 6px 0 0;
  max-width: 600px;
  white-space: pre-wrap;
  color: ${appTheme.color.textMuted};
`;

/** Someone on another server: their page there. */
const Elsewhere = styled.p`
  margin: 6px 0 0;
  font-size: 14px;
  color: ${appTheme.color.textMuted};
  a { color: inherit; text-decoration: underline; overflow-wrap: anywhere; }
`;

const Stats = styled.dl`
  display: flex;
  gap: 20px;
  margin: 14px 0 0;
  div { display: flex; gap: 6px; align-items: baseline; }
  dt { order: 2; color: ${appTheme.color.textMuted}; }
  dd { margin: 0; font-weight: 700; }
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  gap: 8px;
  padding-bottom: 6px;
`;

const MoreMenu = styled(MenuButton)`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 40px;
  height: 40px;
  padding: 0;
  border: 1px solid ${appTheme.color.border};
  border-radius: 50%;
  /* Opaque like the buttons beside it, whatever is behind it. */
  background: ${appTheme.color.surfaceRaised};
  color: ${appTheme.color.text};
  cursor: pointer;
  &[aria-expanded='true'] { border-color: ${appTheme.color.accent}; }
`;

/**
 * Report, Mute/Unmute and Block behind a "…" menu (issue 68, item 9: four buttons did not fit a
 * phone); Unblock, when blocked, is the one button beside it. A block asks first.
 */
function SafetyActions({ profile }: { profile: Profile }) {
  const t = useTranslations('profile');
  const dispatch = useAppDispatch();
  useToasts(relationToasts);
  const [busy, setBusy] = useState<RelationAction | null>(null);
  const [dialog, setDialog] = useState<'block' | 'report' | null>(null);
  const run = async (action: RelationAction) => {
    setBusy(action);
    await dispatch(changeRelation({ username: profile.username, action }));
    setBusy(null);
    setDialog(null);
  };
  const mute: RelationAction = profile.mutedByMe ? 'unmute' : 'mute';
  const share = useShareLink();
  // Share sits in the menu on someone else's profile: beside Follow it pushed the row over the banner at 375 px.
  const { username } = profile;
  const items: MenuItem[] = [{ label: t('actions.report', { username }), onSelect: () => setDialog('report') }];
  if (!profile.blockedByMe) {
    items.push(
      {
        label: profile.mutedByMe ? t('actions.unmute') : t('actions.mute'),
        disabled: busy !== null,
        onSelect: () => void run(mute),
      },
      { label: t('actions.block'), disabled: busy !== null, onSelect: () => setDialog('block') },
    );
  }
  items.push({
    label: t('actions.share', { username }),
    onSelect: () => void share(links.profile(username), t('shareTitle', { username })),
  });
  return (
    <>
      {profile.blockedByMe && (
        <Button disabled={busy !== null} aria-busy={busy === 'unblock'} onClick={() => void run('unblock')}>
          {busy === 'unblock' && <Spinner />} {t('actions.unblock')}
        </Button>
      )}
      <MoreMenu label={t('actions.more', { username })} items={items}>
        <Icon name="more" />
      </MoreMenu>
      {dialog === 'block' && (
        <ConfirmDialog
          title={t('blockDialog.title', { username })}
          message={t('blockDialog.message')}
          confirmLabel={t('actions.block')}
          busy={busy === 'block'}
          onCancel={() => setDialog(null)}
          onConfirm={() => void run('block')}
        />
      )}
      {dialog === 'report' && (
        <ReportDialogPortal targetType="user" targetId={profile.username} onClose={() => setDialog(null)} />
      )}
    </>
  );
}

/** A link only for an http(s) address; it opens apart, tells the page nothing, and names the person's own (`me`). */
function ProfileFields({ fields }: { fields: ProfileField[] }) {
  const t = useTranslations('profile');
  return (
    <Fields>
      {fields.map((field, i) => {
        const web = /^https?:\/\//i.test(field.value);
        return (
          <div key={i}>
            <dt>{field.name}</dt>
            <dd>
              {web ? (
                <a href={field.value} rel="me nofollow noopener noreferrer" target="_blank">
                  {field.value.replace(/^https?:\/\//i, '') || field.value}
                </a>
              ) : (
                <span>{field.value}</span>
              )}
              {field.verifiedAt && (
                <span className="verified" title={t('verifiedTitle')}>
                  <Icon name="check" size={14} />
                  <span className="visually-hidden">{t('verified')}</span>
                </span>
              )}
            </dd>
          </div>
        );
      })}
    </Fields>
  );
}

/** A pill like Report beside it: at 375 px it too sits over the banner. */
const ShareProfile = styled(ShareButton)`
  min-height: 36px;
  padding: 0 14px;
  border: 1px solid ${appTheme.color.border};
  background: ${appTheme.color.surfaceRaised};
  color: ${appTheme.color.textMuted};
  &:hover { color: ${appTheme.color.text}; }
`;

interface ProfileHeaderProps {
  profile: Profile;
  isMe: boolean;
}

/** "This account has moved to …" (issue 76): the account it moved to, linked. */
const Moved = styled.p`
  margin: 12px 0 0;
  max-width: 600px;
  padding: 10px 14px;
  border-radius: 10px;
  border: 1px solid ${appTheme.color.border};
  background: ${appTheme.color.surfaceRaised};
  overflow-wrap: anywhere;
  a { color: ${appTheme.color.text}; font-weight: 600; text-decoration: underline; }
`;

export function ProfileHeader({ profile, isMe }: ProfileHeaderProps) {
  const t = useTranslations('profile');
  const { movedTo, remoteUrl } = profile;
  const dispatch = useAppDispatch();
  const { follow, unfollow } = useAppSelector(selectFollowState);
  const busy = follow.status === 'loading' || unfollow.status === 'loading';

  let action;
  if (isMe) {
    action = (
      <ButtonLink href={links.settings()} $variant="secondary" $size="sm">
        <Icon name="settings" size={16} /> {t('editProfile')}
      </ButtonLink>
    );
  } else if (profile.blockedByMe) {
    action = null;
  } else if (profile.followedByMe) {
    action = (
      <Button
        $variant="secondary"
        disabled={busy}
        aria-busy={busy}
        onClick={() => void dispatch(unfollowUser(profile.username))}
      >
        {busy && <Spinner />} {t('unfollow')}
      </Button>
    );
  } else if (profile.followRequestedByMe) {
    // Issue 70: they approve followers and have not answered; pressing withdraws the request.
    action = (
      <Button
        $variant="secondary"
        disabled={busy}
        aria-busy={busy}
        title={t('withdrawHint')}
        onClick={() => void dispatch(unfollowUser(profile.username))}
      >
        {busy && <Spinner />} {t('requested')}
      </Button>
    );
  } else {
    action = (
      <Button disabled={busy} aria-busy={busy} onClick={() => void dispatch(followUser(profile.username))}>
        {busy && <Spinner />} {t('follow')}
      </Button>
    );
  }

  return (
    <header>
      <Banner $src={profile.banner} role="img" aria-label={t('banner', { username: profile.username })} />
      <Inner>
        <Top>
          <AvatarRing>
            <Avatar src={profile.avatar} name={profile.username} size={128} decorative={false} />
          </AvatarRing>
          <Actions>
            {isMe && (
              <ShareProfile
                path={links.profile(profile.username)}
                title={t('shareTitle', { username: profile.username })}
                label={t('shareOwn')}
                text={t('share')}
              />
            )}
            {action}
            {!isMe && <SafetyActions profile={profile} />}
          </Actions>
        </Top>
        <Name>
          {profile.displayName ? <bdi>{profile.displayName}</bdi> : <PersonName username={profile.username} />}
        </Name>
        {profile.displayName && (
          <Handle>
            @<PersonName username={profile.username} />
          </Handle>
        )}
        {movedTo && (
          <Moved role="status" data-testid="moved-notice">
            {t.rich('movedTo', {
              username: movedTo.username,
              link: () => (
                <AppLink href={links.profile(movedTo.username)}>
                  @<PersonName username={movedTo.username} />
                </AppLink>
              ),
            })}
          </Moved>
        )}
        {profile.description && <Description dir="auto">{profile.description}</Description>}
        {profile.fields.length > 0 && <ProfileFields fields={profile.fields} />}
        {remoteUrl && (
          <Elsewhere>
            {t.rich('elsewhere', {
              url: remoteUrl,
              link: (chunks) => (
                <a href={remoteUrl} rel="noopener noreferrer nofollow">
                  {chunks}
                </a>
              ),
            })}
          </Elsewhere>
        )}
        <Stats>
          <div>
            <dt>{t('stats.posts', { count: profile.postsCount })}</dt>
            <dd>{profile.postsCount}</dd>
          </div>
          <div>
            <dt>{t('stats.followers', { count: profile.followersCount })}</dt>
            <dd>{profile.followersCount}</dd>
          </div>
          <div>
            <dt>{t('stats.following', { count: profile.followingCount })}</dt>
            <dd>{profile.followingCount}</dd>
          </div>
        </Stats>
      </Inner>
    </header>
  );
}
