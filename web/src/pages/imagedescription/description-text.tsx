import { Stack, Text } from '@mantine/core';

/** "Size: 1,457 × 2,083 pixels ...": a finding's name before the first colon, when it is a short heading. */
const FINDING = /^([A-Z][^:]{0,40}?(?:\([^)]*\))?): (.*)$/;

/**
 * A description as the server writes it, one finding a line: each finding's name in bold, its
 * text after it, wrapping; a blank line starts a new part (the vision model's text).
 */
export function DescriptionText({ text, failed }: { text: string; failed: boolean }) {
  if (failed) {
    return (
      <Text size="sm" c="red" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {text}
      </Text>
    );
  }
  const parts = text.split(/\n{2,}/);
  return (
    <Stack gap="sm">
      {parts.map((part, i) => (
        <Stack key={i} gap={2}>
          {part.split('\n').map((line, j) => {
            const finding = FINDING.exec(line);
            return (
              <Text key={j} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {finding ? (
                  <>
                    <Text span fw={600} inherit>
                      {finding[1]}:
                    </Text>{' '}
                    {finding[2]}
                  </>
                ) : (
                  line
                )}
              </Text>
            );
          })}
        </Stack>
      ))}
    </Stack>
  );
}
