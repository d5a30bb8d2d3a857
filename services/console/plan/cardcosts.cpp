#include "cardcosts.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace meridian {

namespace {

constexpr double kHoursAYear = 365 * 24;

// A number at `key` of `node`, checked to lie in [least, most].
Status readNumber(const YAML::Node &node, const char *key, double least, double most, double &out,
                  const std::string &path)
{
    if (!node[key])
        return {};
    double value = 0;
    try {
        value = node[key].as<double>();
    } catch (const YAML::Exception &) {
        return Error{
            fmt::format("{}:{}: {} is not a number", path, node[key].Mark().line + 1, key)};
    }
    if (!std::isfinite(value) || value < least || value > most)
        return Error{fmt::format("{}:{}: {} must be within {} and {}", path,
                                 node[key].Mark().line + 1, key, least, most)};
    out = value;
    return {};
}

Status readCard(const YAML::Node &entry, CardCost &card, const std::string &path)
{
    static const std::set<std::string> kKeys = {"model",
                                                "rate",
                                                "purchase_cny",
                                                "life_years",
                                                "running_share_a_year",
                                                "cloud_cny_per_hour",
                                                "contract_discount"};
    for (const auto &field : entry) {
        const std::string key = field.first.as<std::string>();
        if (!kKeys.count(key))
            return Error{
                fmt::format("{}:{}: unknown key {}", path, field.first.Mark().line + 1, key)};
    }
    for (const Status &read :
         {readNumber(entry, "rate", 0.01, 100, card.rate, path),
          readNumber(entry, "purchase_cny", 0, 1e8, card.purchaseCny, path),
          readNumber(entry, "life_years", 0.5, 20, card.lifeYears, path),
          readNumber(entry, "running_share_a_year", 0, 5, card.runningShareAYear, path),
          readNumber(entry, "cloud_cny_per_hour", 0, 1e4, card.cloudCnyPerHour, path),
          readNumber(entry, "contract_discount", 0, 0.9, card.contractDiscount, path)}) {
        if (!read.ok())
            return read;
    }
    return {};
}

}  // namespace

double CardCost::ownedCnyPerHour() const
{
    return purchaseCny * (1 / lifeYears + runningShareAYear) / kHoursAYear;
}

std::vector<CardCost> defaultCardCosts()
{
    // Per-card rates for a 70B model's serving beside an A100; domestic cards rent 40%
    // under imported ones, as the provider's own prices are; purchase prices as quoted.
    return {
        {"A100-SXM4-80GB", 1.0, 150'000, 5, 0.15, 8.0, 0.10},
        {"H100-SXM5-80GB", 2.0, 260'000, 5, 0.15, 16.0, 0.10},
        {"Ascend-910B", 0.8, 90'000, 5, 0.15, 4.8, 0.10},
        {"MLU370-X8", 0.35, 40'000, 5, 0.15, 4.8, 0.10},
        {"DCU-K100", 0.45, 55'000, 5, 0.15, 4.8, 0.10},
    };
}

Result<std::vector<CardCost>> loadCardCosts(const std::string &path)
{
    std::vector<CardCost> cards = defaultCardCosts();
    YAML::Node root;
    try {
        root = YAML::LoadFile(path);
    } catch (const YAML::BadFile &) {
        return Error{fmt::format("{}: cannot be read", path)};
    } catch (const YAML::Exception &e) {
        return Error{fmt::format("{}:{}: {}", path, e.mark.line + 1, e.msg)};
    }
    const bool priceBook = root.IsMap() && root["prices"];
    const YAML::Node list = root.IsMap() ? root[priceBook ? "card_costs" : "cards"] : YAML::Node();
    if (priceBook && !list)
        return cards;
    if (!list || !list.IsSequence())
        return Error{
            fmt::format("{}:1: needs a list `cards:` (or a price book's `card_costs:`)", path)};
    for (const YAML::Node &entry : list) {
        if (!entry.IsMap() || !entry["model"])
            return Error{fmt::format("{}:{}: a card needs its model", path, entry.Mark().line + 1)};
        const std::string model = entry["model"].as<std::string>();
        auto known = std::find_if(cards.begin(), cards.end(),
                                  [&](const CardCost &c) { return c.model == model; });
        const bool added = known == cards.end();
        CardCost card = added ? CardCost{model, 0, 0, 5, 0.15, 0, 0.10} : *known;
        if (auto read = readCard(entry, card, path); !read.ok())
            return read.error();
        if (added && (card.rate <= 0 || card.purchaseCny <= 0 || card.cloudCnyPerHour <= 0))
            return Error{
                fmt::format("{}:{}: {} is not a model Meridian knows: give its rate, "
                            "purchase_cny and cloud_cny_per_hour",
                            path, entry.Mark().line + 1, model)};
        if (added)
            cards.push_back(card);
        else
            *known = card;
    }
    return cards;
}

}  // namespace meridian
