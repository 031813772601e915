/** Who may see a post, as an icon and a word beside its time (issue 70). */
import styled from 'styled-components';
import { AUDIENCE_TEXTS, type Audience } from '../../../lib/audience';
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

export function AudienceLabel({ audience }: { audience: Audience }) {
  const { label, hint } = AUDIENCE_TEXTS[audience];
  return (
    <Label title={hint} data-testid="post-audience">
      <Icon name={ICONS[audience]} size={13} />
      {label}
    </Label>
  );
}
