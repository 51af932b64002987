/**
 * English function words and conversational fillers: what splits key-phrase candidates and what carries no
 * topic when sentences are scored for a summary. A compact list in the spirit of the SMART/Fox stoplists
 * RAKE uses, plus the fillers of speech ("yeah", "um", "okay") that written stoplists lack.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are as at be because been before being below
  between both but by can could did do does doing done down during each else even ever every few for from
  further get gets getting got had has have having he her here hers herself him himself his how however i
  i'd i'll i'm i've if in into is it it's its itself just let let's like made make many may me might more most
  much must my myself no nor not now of off often on once one only or other our ours ourselves out over own
  please quite rather really said same say says see she should since so some still such than that
  that's the their theirs them themselves then there there's these they they're this those though through
  to too under until up upon us very was we we'll we're we've were what when where which while who whom why
  will with within without would yes yet you you'd you'll you're you've your yours yourself yourselves
  can't cannot don't doesn't didn't isn't wasn't aren't weren't won't wouldn't couldn't shouldn't haven't
  hasn't hadn't oh okay ok yeah yep um uh hmm well right sure hi hello thanks thank want need going
  know think mean thing things something anything nothing way lot bit kind sort back today call`.split(/\s+/),
);
