import { render } from '@testing-library/react';
import { PersonName } from '../../../../components/ui/PersonName';

describe('PersonName', () => {
  it('offers a break before the server of someone elsewhere, keeping the text whole', () => {
    const { container } = render(<PersonName username="bob_long@social.example:8080" />);
    expect(container.textContent).toBe('bob_long@social.example:8080');
    expect(container.innerHTML).toBe('bob_long<wbr><span class="host">@social.example:8080</span>');
  });

  it('leaves a name of this instance as it is', () => {
    const { container } = render(<PersonName username="ann" />);
    expect(container.innerHTML).toBe('ann');
  });
});
