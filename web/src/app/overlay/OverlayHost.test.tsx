import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { OverlayHost } from './OverlayHost';
import { overlay } from '../../core/overlayStore';

afterEach(() => act(() => overlay.hide()));

describe('overlay', () => {
  it("shows the spinner with 'Please Wait' by default", () => {
    renderWithProviders(<OverlayHost />);
    expect(screen.queryByTestId('overlay')).not.toBeInTheDocument();
    act(() => overlay.show());
    expect(screen.getByRole('progressbar', { name: 'Please Wait' })).toHaveTextContent('Please Wait');
  });

  it('shows a message and progress', () => {
    renderWithProviders(<OverlayHost />);
    act(() => overlay.show('Opening Portal'));
    expect(screen.getByTestId('overlay')).toHaveTextContent('Opening Portal');
    act(() => overlay.progress(42.4, 'Building'));
    expect(screen.getByTestId('overlay')).toHaveTextContent('42%');
    expect(screen.getByRole('progressbar', { name: 'Building' })).toHaveAttribute('aria-valuenow', '42.4');
  });

  it('renders custom content and the not-found mode', () => {
    renderWithProviders(<OverlayHost />);
    act(() => overlay.show({ mode: 'custom', content: <p>Custom body</p> }));
    expect(screen.getByText('Custom body')).toBeInTheDocument();
    act(() => overlay.show({ mode: 'notFound' }));
    expect(screen.getByText('page not found')).toBeInTheDocument();
    act(() => overlay.show({ mode: 'serviceUnavailable' }));
    expect(screen.getByRole('heading', { name: 'Service Unavailable' })).toBeInTheDocument();
  });
});
