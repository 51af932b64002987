import { describe, expect, it } from 'vitest';
import {
  findCustomerNames,
  findOrderNumbers,
  foldName,
  matchCustomer,
} from '../../src/server/analysis/match.js';
import { callerIdentity } from '../../src/server/calls/link-store.js';

describe('findOrderNumbers', () => {
  it('finds the number after "order number", as recognisers write it', () => {
    expect(
      findOrderNumbers('Hello. My name is jane smith. I am calling about order number 88. Thank you.'),
    ).toEqual(['88']);
    expect(findOrderNumbers('my order number is 91 of. everything arrived')).toEqual(['91']);
    expect(findOrderNumbers('Where is order #1204?')).toEqual(['1204']);
    expect(findOrderNumbers('order 12,345 and order no. 7')).toEqual(['12345', '7']);
  });

  it('looks past a pause that split the sentence', () => {
    expect(findOrderNumbers('I am calling about my order. Number 84. It arrived late')).toEqual(['84']);
  });

  it('joins a round ten with a digit word that sounds like one ("80 for" is eighty-four)', () => {
    expect(findOrderNumbers('I am calling about order number 80 for. The parcel')).toEqual(['84']);
    expect(findOrderNumbers('order number 90 to please')).toEqual(['92']);
    expect(findOrderNumbers('order number 80. For the second time')).toEqual(['84']);
    // not a round ten, or not a digit word: left alone
    expect(findOrderNumbers('order number 81 for me')).toEqual(['81']);
    expect(findOrderNumbers('order number 80 arrived')).toEqual(['80']);
    expect(findOrderNumbers('order number 100 for')).toEqual(['100']);
  });

  it('ignores numbers that are not about an order, and repeats', () => {
    expect(findOrderNumbers('It arrived 2 weeks late, I paid 40 dollars')).toEqual([]);
    expect(findOrderNumbers('order 88, yes order 88')).toEqual(['88']);
    expect(findOrderNumbers('')).toEqual([]);
  });
});

describe('findCustomerNames', () => {
  it('reads "my name is" and "this is" introductions, capitalised', () => {
    expect(findCustomerNames('Hello. My name is jane smith. I am calling')).toEqual(['Jane Smith']);
    expect(findCustomerNames('hi this is Kenji Sato calling')).toEqual(['Kenji Sato']);
  });

  it('keeps a first name alone and skips phrases that are not names', () => {
    expect(findCustomerNames('this is terrible service. my name is mia.')).toEqual(['Mia']);
    expect(findCustomerNames('it is very late and this is the third time')).toEqual([]);
  });

  it('reads names in any script, so an accented caller is the order customer they are', () => {
    const [spoken] = findCustomerNames('Hello, my name is José Müller. My order 85 is late.');
    expect(spoken).toBe('José Müller');
    expect(callerIdentity(spoken!, 'Jose Muller', '85').matches).toBe(true);
    expect(findCustomerNames('Hi, it’s Zoë Ødegård here.')).toEqual(['Zoë Ødegård']);
    // Hyphens and apostrophes are how the store spells a name, not what the recogniser hears.
    expect(callerIdentity('Mary Jane Oneil', "Mary-Jane O'Neil", '85').matches).toBe(true);
    expect(callerIdentity('Mary Smith', "Mary-Jane O'Neil", '85').matches).toBe(false);
  });

  it('takes no complaint after "it\'s" or "this is" for a name where the recogniser capitalises names', () => {
    // Formatted text (names capitalised mid-sentence): a lower-case word after a weak intro is no name, so
    // no "caller said Arrived Damaged" mismatch reaches the order note.
    const formatted = "It's arrived damaged. This is unbelievable, my name is Amara Okafor.";
    expect(findCustomerNames(formatted)).toEqual(['Amara Okafor']);
    expect(findCustomerNames("It's been two weeks, this is Tom Baker.")).toEqual(['Tom Baker']);
    // Unformatted text keeps the lower-case rules (a plain recogniser capitalises sentence starts only).
    expect(findCustomerNames('hi this is kenji sato calling. I want a refund')).toEqual(['Kenji Sato']);
  });
});

describe('matchCustomer', () => {
  const people = [
    { id: 1, first_name: 'Jane', last_name: 'Smith' },
    { id: 2, first_name: 'John', last_name: 'Smith' },
    { id: 3, first_name: 'Mia', last_name: 'Müller' },
    { id: 4, first_name: 'Jane', last_name: 'Doe' },
  ];

  it('prefers first and last name, then last name, then first name', () => {
    expect(matchCustomer(['Jane Smith'], people)?.id).toBe(1);
    expect(matchCustomer(['Mia Muller'], people)?.id).toBe(3);
    expect(matchCustomer(['Muller'], people)?.id).toBe(3);
  });

  it('returns null for an ambiguous or unknown name', () => {
    expect(matchCustomer(['Smith'], people)).toBeNull();
    expect(matchCustomer(['Jane'], people)).toBeNull();
    expect(matchCustomer(['Candy Sato'], people)).toBeNull();
    expect(matchCustomer([], people)).toBeNull();
  });

  it('folds accents and case', () => {
    expect(foldName(' Chloé ')).toBe('chloe');
  });
});
