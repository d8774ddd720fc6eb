import { ComboboxChevron, InputBase, type ElementProps, type InputBaseProps } from '@mantine/core';

type Option = string | { value: string; label: string };

interface PlainSelectProps extends InputBaseProps, ElementProps<'select', 'size'> {
  data: readonly Option[];
}

/**
 * Mantine's NativeSelect as it looks and works, without what its module brings along: it imports
 * the whole Combobox family (with ScrollArea, Popover and the floating layer), which the shell and
 * the data table would otherwise load up front for a native select.
 */
export function PlainSelect({ data, size, error, ...others }: PlainSelectProps) {
  return (
    <InputBase
      component="select"
      __staticSelector="NativeSelect"
      size={size}
      error={error}
      pointer
      rightSection={<ComboboxChevron size={size} error={error} />}
      rightSectionPointerEvents="none"
      {...others}
    >
      {data.map((option) => {
        const { value, label } = typeof option === 'string' ? { value: option, label: option } : option;
        return (
          <option key={value} value={value}>
            {label}
          </option>
        );
      })}
    </InputBase>
  );
}
