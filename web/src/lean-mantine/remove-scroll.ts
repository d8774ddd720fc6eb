import { fullWidthClassName, zeroRightClassName } from 'react-remove-scroll-bar/constants';

/** react-remove-scroll's RemoveScroll as Mantine's AppShell uses it: for its class names only (see web/vite-lean-mantine.ts). */
export const RemoveScroll = { classNames: { fullWidth: fullWidthClassName, zeroRight: zeroRightClassName } };
