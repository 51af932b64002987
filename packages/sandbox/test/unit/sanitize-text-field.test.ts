import { describe, expect, it } from 'vitest';
import { sanitizeTextField } from '../../src/store/runtime/formatting.js';

// The expected values follow _sanitize_text_fields() in wp-includes/formatting.php step by step.
describe('sanitize_text_field(), the one port', () => {
  it.each([
    ['  a\t\n\r b  ', 'a b'],
    ['<b>Zone</b>   1', 'Zone 1'],
    // wp_pre_kses_less_than(): a `<` that opens no tag is escaped, not stripped to the end.
    ['a < b', 'a &lt; b'],
    ['1 < 2 & 3', '1 &lt; 2 &amp; 3'],
    ["x <'y", 'x &lt;&#039;y'],
    ['a <<b>c', 'a &lt;c'],
    ['x <script>alert(1)</script>y', 'x y'],
    ['<style>p{}</style>', ''],
    // Octets go until none is left, and the spaces they leave collapse.
    ['50%25 off', '50 off'],
    ['a %41 b', 'a b'],
    ['%%4141', ''],
    // PHP's trim() leaves a no-break space.
    ['\u00a0x\u00a0', '\u00a0x\u00a0'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(sanitizeTextField(input)).toBe(expected);
  });
});
