import styled from 'styled-components';
import { useTranslations } from 'use-intl/react';
import { ButtonLink } from '../../../components/ui/Button';
import { Icon } from '../../../components/ui/Icon';
import { appTheme } from '../../../themes';
import { artwork } from '../../../themes/artwork';
import { overImage } from '../../../themes/fixed';
import { links } from '../../../lib/pages';

const Section = styled.section`
  max-width: 1120px;
  margin: 0 auto;
  padding: 48px 20px 72px;
  display: grid;
  gap: 48px;
  align-items: center;
  @media (min-width: 1024px) { grid-template-columns: 1.05fr 1fr; padding-top: 96px; }
`;

const Title = styled.h1`
  font-size: clamp(34px, 6vw, 56px);
  letter-spacing: -0.035em;
  line-height: 1.05;
  em { font-style: normal; color: ${appTheme.color.accent}; }
`;

const Lead = styled.p`
  margin: 18px 0 28px;
  max-width: 520px;
  font-size: 18px;
  color: ${appTheme.color.textMuted};
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
`;

const Features = styled.ul`
  display: grid;
  gap: 10px;
  margin: 32px 0 0;
  padding: 0;
  list-style: none;
  li { display: flex; align-items: center; gap: 10px; color: ${appTheme.color.text}; }
  svg { color: ${appTheme.color.accent}; flex: none; }
`;

const Collage = styled.div`
  position: relative;
  height: 320px;
  @media (min-width: 768px) { height: 440px; }
`;

const Tile = styled.div`
  position: absolute;
  display: flex;
  align-items: flex-end;
  padding: 12px;
  border-radius: 20px;
  box-shadow: 0 20px 50px ${artwork.shadow};
  border: 1px solid ${artwork.edge};
`;

const Caption = styled.span`
  display: inline-flex;
  padding: 4px 10px;
  border-radius: ${appTheme.radius.pill};
  background: ${artwork.caption};
  color: ${overImage.text};
  font-size: 13px;
  font-weight: 600;
`;

const tiles = [
  {
    tag: 'sunset',
    style: {
      left: '4%',
      top: '6%',
      width: '52%',
      height: '62%',
      transform: 'rotate(-5deg)',
      background: artwork.sunset,
    },
  },
  {
    tag: 'sea',
    style: {
      right: '2%',
      top: 0,
      width: '44%',
      height: '48%',
      transform: 'rotate(4deg)',
      background: artwork.sea,
    },
  },
  {
    tag: 'hiking',
    style: {
      right: '8%',
      bottom: '2%',
      width: '50%',
      height: '50%',
      transform: 'rotate(-2deg)',
      background: artwork.hiking,
    },
  },
];

export function Hero() {
  const t = useTranslations('landing');
  return (
    <Section>
      <div>
        <Title>
          {t('title')}
          <br />
          <em>{t('titleEmphasis')}</em>
        </Title>
        <Lead>{t('lead')}</Lead>
        <Actions>
          <ButtonLink href={links.createAccount()}>{t('createAccount')}</ButtonLink>
          <ButtonLink href={links.login()} $variant="secondary">
            {t('signIn')}
          </ButtonLink>
        </Actions>
        <Features>
          <li>
            <Icon name="image" /> {t('features.post')}
          </li>
          <li>
            <Icon name="users" /> {t('features.follow')}
          </li>
          <li>
            <Icon name="hash" /> {t('features.search')}
          </li>
        </Features>
      </div>
      <Collage aria-hidden="true">
        {tiles.map((tile) => (
          <Tile key={tile.tag} style={tile.style}>
            <Caption>
              <bdi>#{tile.tag}</bdi>
            </Caption>
          </Tile>
        ))}
      </Collage>
    </Section>
  );
}
