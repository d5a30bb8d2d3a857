// What a card-hour costs the provider, per card model: the cost side beside the price
// book. Owning costs the purchase spread over the card's life plus its running cost
// (power, cooling, space, operations) every hour, used or not; a six-month contract costs
// its hourly price less the contract discount every hour; renting costs the cloud's hourly
// price for each started hour used. A model's rate is what one of its cards serves of a
// service's load beside an A100 (1.0). The defaults are the provider's figures (an A100
// about 150,000 CNY, running cost 15% of the hardware a year, domestic cards 40% under
// imported ones, 10% off a contract); a YAML file overrides any of them.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"

namespace meridian {

struct CardCost {
    std::string model;       // as the catalogue names it: "A100-SXM4-80GB"
    double rate = 1;         // a card's share of the service's load, beside an A100's
    double purchaseCny = 0;  // per card
    double lifeYears = 5;
    double runningShareAYear = 0.15;  // of the purchase price
    double cloudCnyPerHour = 0;       // renting, per card-hour
    double contractDiscount = 0.10;   // off the cloud's price, six months or more

    double ownedCnyPerHour() const;
    double contractCnyPerHour() const { return cloudCnyPerHour * (1 - contractDiscount); }
};

// The five models the fleet has, at the defaults above.
std::vector<CardCost> defaultCardCosts();

// The defaults, with what `path` says over them: a costs file's `cards:`, or the price
// book's `card_costs:` (the cost side beside the prices), entries alike:
//   cards:
//     - {model: A100-SXM4-80GB, purchase_cny: 140000, cloud_cny_per_hour: 7.5}
//     - {model: Ascend-910B, rate: 0.8, life_years: 6}
// A price book without `card_costs:` gives the defaults.
// A model the defaults lack is added (it needs a rate, a purchase and a cloud price);
// an unknown key, a negative price or a rate of zero is refused, the file and line named.
Result<std::vector<CardCost>> loadCardCosts(const std::string &path);

}  // namespace meridian
