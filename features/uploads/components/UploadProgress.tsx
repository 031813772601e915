import styled from 'styled-components';
import { appTheme } from '../../../themes';

const Track = styled.div`
  height: 6px;
  margin-top: 8px;
  border-radius: ${appTheme.radius.pill};
  background: ${appTheme.color.surfaceRaised};
  overflow: hidden;
  span {
    display: block;
    height: 100%;
    background: ${appTheme.color.accent};
    transition: width 0.15s linear;
  }
`;

/** The running upload's whole percent (the slice resets it to 0 once it reaches 100). */
export function UploadProgress({ percent, label }: { percent: number; label: string }) {
  return (
    <Track role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
      <span style={{ width: `${percent}%` }} />
    </Track>
  );
}
