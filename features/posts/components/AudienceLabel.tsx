/** Who may see a post, as an icon and a word beside its time (issue 70). */
import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import type { Audience } from '../../../lib/audience';
import { Icon, type IconName } from '../../../components/ui/Icon';
import { appTheme } from '../../../themes';

const ICONS: Record<Audience, IconName> = { public: 'globe', unlisted: 'lockOpen', followers: 'lock', mentioned: 'at' };

const Label = styled.span`
  display: inline-flex;
  align-items: center;
  gap: 4px;
  font-size: 13px;
  color: ${appTheme.color.textMuted};
`;

/** Each audience's label and the line of what it means, as the composer, the edit dialog and a post show them. */
export function useAudienceTexts(): Record<Audience, { label: string; hint: string }> {
  const t = useTranslations('posts');
  return {
    public: { label: t('audience.public'), hint: t('audience.publicHint') },
    unlisted: { label: t('audience.unlisted'), hint: t('audience.unlistedHint') },
    followers: { label: t('audience.followers'), hint: t('audience.followersHint') },
    mentioned: { label: t('audience.mentioned'), hint: t('audience.mentionedHint') },
  };
}

export function AudienceLabel({ audience }: { audience: Audience }) {
  const { label, hint } = useAudienceTexts()[audience];
  return (
    <Label title={hint} data-testid="post-audience">
      <Icon name={ICONS[audience]} size={13} />
      {label}
    </Label>
  );
}
